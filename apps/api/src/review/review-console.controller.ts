import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/auth';

/** Next to this file in the sources, and copied next to the compiled file by `npm run build`. */
const CONSOLE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'console');
const read = (name: string) => readFileSync(join(CONSOLE_DIR, name), 'utf8');

/**
 * The page itself is public: it holds no data. The reviewer's token stays in the tab's session storage and goes
 * out only as a Bearer header on `fetch` to this origin; the policy below allows no inline or foreign script.
 */
const SECURITY_HEADERS = {
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
  private readonly files = { html: read('index.html'), js: read('console.js'), css: read('console.css') };

  @Get()
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the review console for finance staff (sign in with a reviewer token)' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Headers(SECURITY_HEADERS)
  page(): string {
    return this.files.html;
  }

  @Get('console.js')
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'the console script' })
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Headers(SECURITY_HEADERS)
  script(): string {
    return this.files.js;
  }

  @Get('console.css')
  @ApiProduces('text/css')
  @ApiOkResponse({ description: 'the console style sheet' })
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Headers(SECURITY_HEADERS)
  style(): string {
    return this.files.css;
  }
}

/** Several fixed response headers at once. */
function Headers(headers: Record<string, string>): MethodDecorator {
  return (target, key, descriptor) => {
    for (const [name, value] of Object.entries(headers)) Header(name, value)(target, key, descriptor);
  };
}
