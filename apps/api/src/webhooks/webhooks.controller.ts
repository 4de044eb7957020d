import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '@app/auth';
import { WebhookIngestService, type IngestResult } from '@app/webhooks';

/** Authenticated by the provider's signature over the raw body, not by a bearer token. */
@ApiExcludeController()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly ingest: WebhookIngestService) {}

  @Public()
  @Post(':provider')
  @HttpCode(200)
  receive(@Param('provider') provider: string, @Req() req: RawBodyRequest<Request>): Promise<IngestResult> {
    return this.ingest.ingest(provider, req.rawBody, req.headers);
  }
}
