import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { Public } from '@app/auth';
import type { WebhookTransport } from '@app/gateways';
import { WebhookIngestService, type IngestResult } from '@app/webhooks';

/** Authenticated by the provider's signature over the raw body, not by a bearer token (Efí: mTLS or the URL's hmac). */
@ApiExcludeController()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly ingest: WebhookIngestService) {}

  @Public()
  @Post(':provider')
  @HttpCode(200)
  receive(@Param('provider') provider: string, @Req() req: RawBodyRequest<FastifyRequest>): Promise<IngestResult> {
    return this.ingest.ingest(provider, req.rawBody, req.headers, transportOf(req));
  }

  /** Efí posts sent-Pix notifications to `{registered url}/pix`. */
  @Public()
  @Post('efi/pix')
  @HttpCode(200)
  receiveEfiPix(@Req() req: RawBodyRequest<FastifyRequest>): Promise<IngestResult> {
    return this.ingest.ingest('efi', req.rawBody, req.headers, transportOf(req));
  }
}

function transportOf(req: FastifyRequest): WebhookTransport {
  const query: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) if (typeof value === 'string') query[name] = value;
  return { query, tlsClientAuthorized: (req.socket as Partial<TLSSocket>).authorized === true };
}
