import { registerDecorator, type ValidationOptions } from 'class-validator';
import { formatUsd, isUsdAmount, MAX_USD_MICROS } from './usd.js';

/**
 * class-validator rule for DTO properties that hold a USD amount (`isUsdAmount`): refused where
 * the request comes in when no bigint column could hold it. Too many decimals and a sign pass, for
 * the service's `parseUsd` to refuse as `precision_overflow` and `validation_error`.
 */
export function IsUsdAmount(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isUsdAmount',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ property }) => `${property} must be a decimal USD amount such as "10.500000", at most ${formatUsd(MAX_USD_MICROS)}`,
        ...options,
      },
      validator: { validate: (value: unknown) => isUsdAmount(value) },
    });
  };
}
