import { registerDecorator, type ValidationOptions } from 'class-validator';
import { isNonzeroEvmAddress } from './address.js';

/** class-validator rule for DTO properties that hold a `NonzeroEvmAddress`. */
export function IsNonzeroEvmAddress(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isNonzeroEvmAddress',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ property }) =>
          `${property} must be a nonzero EVM address: 0x and 40 hex digits, with a valid EIP-55 checksum when mixed case`,
        ...options,
      },
      validator: { validate: (value: unknown) => isNonzeroEvmAddress(value) },
    });
  };
}
