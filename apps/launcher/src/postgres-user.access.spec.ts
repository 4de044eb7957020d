import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstFolderClosedTo, postgresSystemUser } from './postgres-user.access.js';

describe('firstFolderClosedTo', () => {
  const root = mkdtempSync(join(tmpdir(), 'pg-reach-'));
  chmodSync(root, 0o755);
  const open = join(root, 'open');
  const privateDir = join(root, 'private');
  const groupOnly = join(root, 'group-only');
  mkdirSync(join(open, 'data'), { recursive: true, mode: 0o755 });
  mkdirSync(join(privateDir, 'data'), { recursive: true });
  chmodSync(privateDir, 0o700);
  mkdirSync(groupOnly);
  chmodSync(groupOnly, 0o710);
  const stranger = { uid: 4_000_001, gid: 4_000_001 };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['a path whose folders all let others through', join(open, 'data'), null],
    ['a folder not created yet under open ones', join(open, 'data', 'postgres'), null],
    ['a private folder (mode 700, as mktemp -d makes)', join(privateDir, 'data'), privateDir],
    ['a folder open to its group only', groupOnly, groupOnly],
  ])('%s', (_, path, closed) => {
    expect(firstFolderClosedTo(stranger, path)).toBe(closed);
    expect(firstFolderClosedTo(null, path)).toBe(closed);
  });

  it('lets the owner and the group through their own bits', () => {
    const owner = { uid: process.getuid!(), gid: 4_000_001 };
    expect(firstFolderClosedTo(owner, join(privateDir, 'data'))).toBeNull();
    const group = { uid: 4_000_001, gid: process.getgid!() };
    expect(firstFolderClosedTo(group, groupOnly)).toBeNull();
  });

  it('reads the postgres user from a passwd file, or null when there is none', () => {
    const passwd = join(root, 'passwd');
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\npostgres:x:105:110:PostgreSQL:/var/lib/postgresql:/bin/bash\n');
    expect(postgresSystemUser(passwd)).toEqual({ uid: 105, gid: 110 });
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\n');
    expect(postgresSystemUser(passwd)).toBeNull();
  });
});
