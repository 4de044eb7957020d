import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/auth';
import { Headers, SECURITY_HEADERS } from './review-console.controller.js';

const require = createRequire(import.meta.url);

/**
 * Third-party files the console loads, served from the installed npm package (no CDN: the console's policy
 * allows scripts from this origin only). Only the files named here, read once at boot.
 */
const VENDOR = new Map([
  ['uPlot.iife.min.js', { body: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'), type: 'text/javascript; charset=utf-8' }],
  ['uPlot.min.css', { body: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'), type: 'text/css; charset=utf-8' }],
]);

@ApiTags('review console')
@Public()
@Controller('review/console/vendor')
export class ConsoleVendorController {
  @Get(':file')
  @ApiParam({ name: 'file', description: 'uPlot.iife.min.js or uPlot.min.css (the chart library)' })
  @ApiProduces('text/javascript', 'text/css')
  @ApiOkResponse({ description: 'a vendored script or style sheet of the console' })
  @ApiNotFoundResponse({ description: 'no such vendored file' })
  @Headers(SECURITY_HEADERS)
  file(@Param('file') file: string, @Res({ passthrough: true }) res: FastifyReply): string {
    const asset = VENDOR.get(file);
    if (!asset) throw new NotFoundException(`the review console vendors no file ${file}`);
    res.type(asset.type);
    return asset.body;
  }
}
