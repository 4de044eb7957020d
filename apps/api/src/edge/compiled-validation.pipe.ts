import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { type ValidationArguments, getMetadataStorage } from 'class-validator';

/** What a body must pass, property by property, read once from the DTO's class-validator decorators. */
interface PropertyRules {
  name: string;
  /** @IsOptional / @ValidateIf: when one answers false, the property's other rules do not apply. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  validators: Array<{ validate(value: unknown, args: ValidationArguments): unknown; constraints: unknown[] }>;
}

type BodyCheck = (body: Record<string, unknown>) => boolean;

/**
 * The api's validation: class-validator's rules and messages, with a fast path for request bodies that pass.
 *
 * Nest's ValidationPipe builds a class instance (class-transformer), then class-validator walks every rule of
 * every property, allocating an error object per property even when all is well: on `POST /charges` that was the
 * largest share of the api's allocations. For a DTO whose decorators are plain synchronous rules on flat fields,
 * the same rules (the very validator instances class-validator holds) are compiled once into a check. A body the
 * check accepts becomes the instance class-transformer would have built; anything else, and every DTO the check
 * cannot express, takes Nest's own path, which produces every 400 and its messages. The check only ever says
 * "valid" where class-validator would: test/compiled-validation.test.ts compares both on random bodies.
 *
 * The options are fixed: the fast path assumes whitelist + forbidNonWhitelisted + transform.
 */
@Injectable()
export class CompiledValidationPipe extends ValidationPipe {
  private readonly checks = new Map<unknown, BodyCheck | null>();

  constructor() {
    // 400 before any handler runs, so bad input never writes anything.
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as (new () => object) | undefined;
    if (metadata.type === 'body' && metatype && isPlainObject(value)) {
      let check = this.checks.get(metatype);
      if (check === undefined) this.checks.set(metatype, (check = compileBodyCheck(metatype)));
      if (check?.(value)) return Object.assign(new metatype(), value);
    }
    return super.transform(value, metadata);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The check for `metatype`, or null when a decorator needs class-validator's own path (nested, each, groups, async...). */
export function compileBodyCheck(metatype: new () => object): BodyCheck | null {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(metatype, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  const byName = new Map<string, PropertyRules>();
  for (const metadata of metadatas) {
    if (metadata.each || metadata.groups?.length || metadata.always !== undefined || metadata.validateIf) return null;
    const rules = byName.get(metadata.propertyName) ?? { name: metadata.propertyName, conditions: [], validators: [] };
    byName.set(metadata.propertyName, rules);
    if (metadata.type === 'conditionalValidation') rules.conditions.push(metadata.constraints[0] as PropertyRules['conditions'][number]);
    else if (metadata.type === 'customValidation') {
      for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
        if (constraint.async) return null;
        rules.validators.push({ validate: (value, args) => constraint.instance.validate(value, args), constraints: metadata.constraints });
      }
    } else if (metadata.type !== 'whitelistValidation') return null;
  }
  const properties = [...byName.values()];
  if (properties.some((p) => hasTransformerRules(metatype, p.name)) || defaultMetadataStorage.getExposedMetadatas(metatype).length > 0) return null;
  // Accessors (Object.assign would call them) and fields the constructor sets that no rule covers (whitelisting
  // would refuse them): class-validator's path, where the instance is what gets validated.
  if (hasAccessors(metatype) || Object.keys(new metatype()).some((key) => !byName.has(key))) return null;
  const targetName = metatype.name;
  return (body) => {
    for (const key of Object.keys(body)) if (!byName.has(key)) return false;
    for (const { name, conditions, validators } of properties) {
      const value = body[name];
      // Objects and arrays would be copied by class-transformer, not shared: its path, not this one.
      if (typeof value === 'object' && value !== null) return false;
      if (conditions.some((condition) => !condition(body, value))) continue;
      for (const { validate, constraints } of validators) {
        if (validate(value, { targetName, property: name, object: body, value, constraints }) !== true) return false;
      }
    }
    return true;
  };
}

function hasAccessors(metatype: new () => object): boolean {
  for (let prototype = metatype.prototype as object | null; prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype) as object | null) {
    if (Object.values(Object.getOwnPropertyDescriptors(prototype)).some((d) => d.get ?? d.set)) return true;
  }
  return false;
}

/** A @Type, @Transform, @Expose or @Exclude on the property: class-transformer would change the value. */
function hasTransformerRules(metatype: new () => object, property: string): boolean {
  return (
    defaultMetadataStorage.findTypeMetadata(metatype, property) !== undefined ||
    defaultMetadataStorage.findTransformMetadatas(metatype, property, TransformationType.PLAIN_TO_CLASS).length > 0 ||
    defaultMetadataStorage.findExposeMetadata(metatype, property) !== undefined ||
    defaultMetadataStorage.findExcludeMetadata(metatype, property) !== undefined
  );
}
