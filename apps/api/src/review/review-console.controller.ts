import { readFileSync, readdirSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/auth';

/** Next to this file in the sources, and copied next to the compiled file by `npm run build`. */
const CONSOLE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'console');
const read = (name: string) => readFileSync(join(CONSOLE_DIR, name), 'utf8');
const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * The page itself is public: it holds no data. The reviewer's token stays in the tab's session storage and goes
 * out only as a Bearer header on `fetch` to this origin; the policy below allows no inline or foreign script.
 */
export const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

@ApiTags('review console')
@Public()
@Controller('review')
export class ReviewConsoleController {
  private readonly page = read('index.html');
  /** The page's modules and style sheet, read once at boot: only files that ship with the console are served. */
  private readonly assets = new Map(
    readdirSync(CONSOLE_DIR)
      .filter((name) => extname(name) in ASSET_TYPES)
      .map((name) => [name, { body: read(name), type: ASSET_TYPES[extname(name)] }]),
  );

  @Get()
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the review console for finance staff (sign in with a reviewer token)' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Headers(SECURITY_HEADERS)
  index(): string {
    return this.page;
  }

  @Get('console/:file')
  @ApiParam({ name: 'file', description: 'one of the console\'s modules (console.js, queue.js, …) or console.css' })
  @ApiProduces('text/javascript', 'text/css')
  @ApiOkResponse({ description: 'a module or the style sheet of the console' })
  @ApiNotFoundResponse({ description: 'no such console file' })
  @Headers(SECURITY_HEADERS)
  asset(@Param('file') file: string, @Res({ passthrough: true }) res: FastifyReply): string {
    const asset = this.assets.get(file);
    if (!asset) throw new NotFoundException(`the review console has no file ${file}`);
    res.type(asset.type);
    return asset.body;
  }
}

/** Several fixed response headers at once. */
export function Headers(headers: Record<string, string>): MethodDecorator {
  return (target, key, descriptor) => {
    for (const [name, value] of Object.entries(headers)) Header(name, value)(target, key, descriptor);
  };
}
