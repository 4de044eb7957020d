import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { LIST_PAGE_DEFAULT, LIST_PAGE_MAX } from '@app/common';

/** The paging parameters every list takes (parsed by @app/common's list-page: a bad one is a 400 naming it). */
export function ListPageQuery(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'cursor', required: false, type: String, description: 'the nextCursor of the previous page' }),
    ApiQuery({ name: 'limit', required: false, type: Number, description: `1 to ${LIST_PAGE_MAX}, default ${LIST_PAGE_DEFAULT}`, example: 50 }),
  );
}

export function StatusQuery(statuses: readonly string[], example: string): MethodDecorator {
  return ApiQuery({ name: 'status', required: false, enum: [...statuses], example, description: 'only objects in this status now' });
}
