// The review console is static HTML/JS/CSS next to its controller; tsc copies only what it compiles, so the build
// copies the console next to the compiled controller.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
cpSync(join(root, 'apps/api/src/review/console'), join(root, 'dist/apps/api/src/review/console'), { recursive: true });
