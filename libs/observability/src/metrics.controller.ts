import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, Headers, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/auth';
import { AppConfig } from '@app/config';
import { metricsRegistry } from './metrics.js';

/**
 * Prometheus' scrape. Open by default (bind it inside your network), or, with METRICS_TOKEN set, only for
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time), so a public api never hands out its figures.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly config: AppConfig) {}

  @Public()
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(@Headers('authorization') authorization?: string): Promise<string> {
    const expected = this.config.METRICS_TOKEN;
    if (expected && !sameSecret(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1], expected)) {
      throw new UnauthorizedException('metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    return metricsRegistry.metrics();
  }
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
