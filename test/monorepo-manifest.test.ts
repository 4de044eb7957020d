import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

const root = process.cwd();
const nestCli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as { projects: Record<string, NestProject> };
const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[]; compilerOptions: { paths: Record<string, string[]> } };
const dirs = (parent: string) => readdirSync(join(root, parent), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/**
 * nest-cli.json is the monorepo's project list (`npx nest generate … --project <name>` reads it; the build is tsc +
 * tsc-alias over tsconfig.build.json). A list nobody checks drifts: this keeps it, and tsconfig, true to the tree.
 */
describe('the monorepo manifest', () => {
  it('lists every app and library, each with a source root and entry file that exist', () => {
    const projects = Object.entries(nestCli.projects);
    expect(projects.filter(([, p]) => p.type === 'application').map(([name]) => name).sort()).toEqual(dirs('apps'));
    expect(projects.filter(([, p]) => p.type === 'library').map(([name]) => name).sort()).toEqual(dirs('libs'));
    for (const [name, project] of projects) {
      expect(project.root, name).toBe(`${project.type === 'application' ? 'apps' : 'libs'}/${name}`);
      expect(existsSync(join(root, project.sourceRoot, `${project.entryFile}.ts`)), `${name}: ${project.sourceRoot}/${project.entryFile}.ts`).toBe(true);
    }
  });

  it('gives every library its @app alias, and tsconfig includes only folders that exist', () => {
    for (const lib of dirs('libs')) expect(tsconfig.compilerOptions.paths[`@app/${lib}`], lib).toEqual([`./libs/${lib}/src/index.ts`]);
    for (const included of tsconfig.include) expect(existsSync(join(root, included)), included).toBe(true);
  });
});
