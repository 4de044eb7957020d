import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, Headers, Inject, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/auth';
import { AppConfig } from '@app/config';
import { metricsRegistry } from './metrics.js';

/** Whether this process's main port serves /metrics with no METRICS_TOKEN set (ObservabilityModule.register). */
export const METRICS_ON_MAIN_PORT = Symbol('METRICS_ON_MAIN_PORT');

/**
 * Prometheus' scrape. With METRICS_TOKEN set, only for `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time). Without one: open on the worker's internal port, and a 404 on the api's public one, whose
 * figures are then served on METRICS_PORT alone.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly config: AppConfig,
    @Inject(METRICS_ON_MAIN_PORT) private readonly onMainPort: 'always' | 'withToken',
  ) {}

  @Public()
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(@Headers('authorization') authorization?: string): Promise<string> {
    const expected = this.config.METRICS_TOKEN;
    if (!expected && this.onMainPort === 'withToken') throw new NotFoundException('Cannot GET /metrics');
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
