import 'reflect-metadata';
import { type ArgumentMetadata, HttpException, ValidationPipe } from '@nestjs/common';
import { IsString, getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApiModule } from '../apps/api/src/api.module.js';
import { CreateChargeDto } from '../apps/api/src/charges/create-charge.dto.js';
import { CompiledValidationPipe, compileBodyCheck } from '../apps/api/src/edge/compiled-validation.pipe.js';

/** Every class an api route takes as its @Body, read from the controllers' own metadata: none can be left out. */
function bodyDtosOfTheApi(): Array<new () => object> {
  const found = new Set<new () => object>();
  for (const controller of Reflect.getMetadata('controllers', ApiModule) as Array<new (...args: never[]) => object>) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number }>;
      const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as Array<new () => object>;
      for (const [key, { index }] of Object.entries(args)) {
        if (key.split(':')[0] === String(RouteParamtypes.BODY) && types[index] && types[index] !== Object) found.add(types[index]);
      }
    }
  }
  return [...found];
}

const BODY_DTOS = bodyDtosOfTheApi();

/** What a pipe made of a body: the instance it returned (prototype and fields), or the 400 it threw. */
async function outcome(pipe: ValidationPipe, body: unknown, metatype: new () => object): Promise<unknown> {
  const metadata: ArgumentMetadata = { type: 'body', metatype, data: undefined };
  try {
    const value = (await pipe.transform(structuredClone(body), metadata)) as object;
    return { prototype: Object.getPrototypeOf(value) as unknown, fields: { ...value } };
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    return { status: error.getStatus(), response: error.getResponse() };
  }
}

/** Values a client might send for any field: right and wrong types, edges of lengths and ranges. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[a-z]{3}$/),
  fc.constantFrom('', 'usd', 'USD', 'PIX', 'BOLETO', 'stripe', 'asaas', '2026-12-20', '2026-13-01', 'x'.repeat(201), '00000000-0000-4000-8000-000000000000', 'approve', 'reject'),
  fc.integer({ min: -5, max: 5_000 }),
  fc.constantFrom(0, 1, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.NaN),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ nested: 1 }),
  fc.constant([1]),
);

function bodiesOf(metatype: new () => object): fc.Arbitrary<Record<string, unknown>> {
  const names = [...new Set(getMetadataStorage().getTargetValidationMetadatas(metatype, '', false, false, undefined).map((m) => m.propertyName))];
  return fc.dictionary(fc.constantFrom(...names, 'extra'), anyValue, { maxKeys: names.length + 1 });
}

describe('CompiledValidationPipe', () => {
  it('compiles a check for the hot route body (POST /charges), among every body DTO the controllers take', () => {
    expect(BODY_DTOS).toContain(CreateChargeDto);
    expect(BODY_DTOS.length).toBeGreaterThanOrEqual(12);
    expect(compileBodyCheck(CreateChargeDto)).not.toBeNull();
  });

  it('leaves a DTO with an accessor or an unruled field to class-validator', () => {
    class WithAccessor {
      @IsString() name!: string;
      get upper(): string {
        return this.name.toUpperCase();
      }
    }
    class WithUnruledField {
      @IsString() name!: string;
      source = 'api';
    }
    expect(compileBodyCheck(WithAccessor)).toBeNull();
    expect(compileBodyCheck(WithUnruledField)).toBeNull();
  });

  it.each(BODY_DTOS.map((dto) => [dto.name, dto] as const))('answers every %s body exactly as ValidationPipe does', async (_name, metatype) => {
    const compiled = new CompiledValidationPipe();
    const reference = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false });
    await fc.assert(
      fc.asyncProperty(bodiesOf(metatype), async (body) => {
        expect(await outcome(compiled, body, metatype)).toEqual(await outcome(reference, body, metatype));
      }),
      { numRuns: 400 },
    );
  });

  it('answers charge bodies near the edge of valid exactly as ValidationPipe does', async () => {
    const compiled = new CompiledValidationPipe();
    const reference = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false });
    const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
    const nearlyValid = fc.record(
      {
        orderId: field(fc.string({ minLength: 1, maxLength: 200 })),
        amountCents: field(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
        currency: field(fc.constantFrom('usd', 'brl', 'eur')),
        customerId: field(fc.string({ minLength: 1, maxLength: 200 })),
        paymentMethodId: field(fc.string({ minLength: 1, maxLength: 200 })),
        provider: field(fc.constantFrom('stripe', 'asaas', 'efi')),
        billingType: field(fc.constantFrom('PIX', 'BOLETO', 'CREDIT_CARD')),
        dueDate: field(fc.constantFrom('2026-12-20', '2027-01-31')),
      },
      { requiredKeys: ['orderId', 'amountCents', 'currency', 'customerId'] },
    );
    let fast = 0;
    const check = compileBodyCheck(CreateChargeDto)!;
    await fc.assert(
      fc.asyncProperty(nearlyValid, async (body) => {
        if (check(structuredClone(body))) fast++;
        expect(await outcome(compiled, body, CreateChargeDto)).toEqual(await outcome(reference, body, CreateChargeDto));
      }),
      { numRuns: 600 },
    );
    // Both sides of the check were exercised, not only the fallback.
    expect(fast).toBeGreaterThan(100);
  });

  it('leaves a valid charge body to the fast path and still refuses a wrong one with the field named', async () => {
    const pipe = new CompiledValidationPipe();
    const metadata: ArgumentMetadata = { type: 'body', metatype: CreateChargeDto, data: undefined };
    const valid = await pipe.transform({ orderId: 'o-1', amountCents: 4990, currency: 'usd', customerId: 'c' }, metadata);
    expect(valid).toBeInstanceOf(CreateChargeDto);
    expect(valid).toMatchObject({ orderId: 'o-1', amountCents: 4990 });
    await expect(pipe.transform({ orderId: 'o-1', amountCents: 49.9, currency: 'usd', customerId: 'c' }, metadata)).rejects.toMatchObject({
      response: { message: ['amountCents must be an integer number'] },
    });
  });
});
