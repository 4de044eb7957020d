import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import { WebhookEndpointsService, type PingSent, type WebhookEndpointView, type WebhookEndpointWithSecret } from '@app/events';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { CreateWebhookEndpointDto } from './create-webhook-endpoint.dto.js';
import { UpdateWebhookEndpointDto } from './update-webhook-endpoint.dto.js';
import { PingSentDto, WebhookEndpointViewDto, WebhookEndpointWithSecretDto } from './webhook-endpoint-view.dto.js';

/** A merchant's receivers of events. The secret is in the answer of create and rotate-secret, and nowhere else. */
@ApiTags('webhook-endpoints')
@ApiBearerAuth()
@Roles('merchant')
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto, description: 'the endpoint and its signing secret: the only time the secret is shown' })
  @ApiErrors({ 400: 'webhook_url_refused', 403: 'webhook_endpoint_merchant_required', 422: 'webhook_endpoint_limit_reached', 503: 'events_encryption_key_missing' })
  create(@Body() body: CreateWebhookEndpointDto, @CurrentActor() actor: Actor): Promise<WebhookEndpointWithSecret> {
    return this.endpoints.create(actor, body);
  }

  @Get()
  @ApiOkResponse({ type: [WebhookEndpointViewDto], description: 'newest first, deleted ones left out' })
  list(@CurrentActor() actor: Actor): Promise<WebhookEndpointView[]> {
    return this.endpoints.list(actor);
  }

  @Get(':id')
  @ApiOkResponse({ type: WebhookEndpointViewDto })
  @ApiErrors({ 404: 'webhook_endpoint_not_found' })
  get(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<WebhookEndpointView> {
    return this.endpoints.view(actor, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: WebhookEndpointViewDto })
  @ApiErrors({ 400: 'webhook_url_refused', 404: 'webhook_endpoint_not_found' })
  update(@Param('id', ParseUUIDPipe) id: string, @Body() body: UpdateWebhookEndpointDto, @CurrentActor() actor: Actor): Promise<WebhookEndpointView> {
    return this.endpoints.update(actor, id, { url: body.url, eventTypes: body.events, enabled: body.enabled, description: body.description });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'gone from every view and fan-out; its deliveries keep their history' })
  @ApiErrors({ 404: 'webhook_endpoint_not_found' })
  async remove(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.endpoints.remove(actor, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto, description: 'a new secret, shown this once; the previous one still signs deliveries for 24 h' })
  @ApiErrors({ 403: 'webhook_endpoint_merchant_required', 404: 'webhook_endpoint_not_found', 503: 'events_encryption_key_missing' })
  rotateSecret(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<WebhookEndpointWithSecret> {
    return this.endpoints.rotateSecret(actor, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: PingSentDto, description: 'a ping event for this endpoint alone, delivered like any other event' })
  @ApiErrors({ 404: 'webhook_endpoint_not_found', 409: 'webhook_endpoint_disabled' })
  test(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<PingSent> {
    return this.endpoints.ping(actor, id);
  }
}
