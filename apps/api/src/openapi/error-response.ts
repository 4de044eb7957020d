import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The shape of every error the api sends (Nest's, plus our domain code). */
export class ErrorResponse {
  @ApiProperty({ example: 404 }) statusCode!: number;
  @ApiProperty({ example: 'Not Found' }) error!: string;
  @ApiProperty({ example: 'charge 3f0c… not found' }) message!: string | string[];
  @ApiPropertyOptional({ description: 'the domain rule that refused; absent on validation and auth errors', example: 'charge_not_found' }) code?: string;
  @ApiPropertyOptional({ description: 'facts about the refusal, e.g. the refundable amount', type: 'object', additionalProperties: true }) details?: Record<string, unknown>;
}
