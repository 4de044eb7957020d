import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isCalendarDay } from '@app/common';

/** A real calendar day as `YYYY-MM-DD` (`2026-02-30` refused with the field's own message, never a 500 from SQL). */
export function IsCalendarDay(options: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isCalendarDay', validator: { validate: (value) => isCalendarDay(value) } }, options);
}
