import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { Type as Dto } from '@nestjs/common';
import {
  ActivityQueryDto,
  AllocateDto,
  CancelWithdrawalDto,
  CreateAddressBookEntryDto,
  CreateApiKeyDto,
  CreateApproverDto,
  CreateWalletDto,
  CreateWithdrawalDto,
  DepositLookupQueryDto,
  PageQueryDto,
  PayoutRequestDto,
  PutApprovalPolicyDto,
  UpdateWalletDto,
  UpdateWebhookDto,
  WalletListQueryDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { validateInput, validQuery } from './validation.js';

function failure(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

/** The code and message `run` is refused with. */
const refusal = (run: () => unknown) => {
  const { code, message } = failure(run);
  return { code, message };
};

const invalid = (message: string) => ({ code: 'validation_error', message });

const REQUEST_ID = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const WALLET_ID = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';
const TX_HASH = `0x${'ab'.repeat(32)}`;
const STRATEGY = { allocations: { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] } };
const INSTRUCTION = { from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '10.000000' };

const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index]));

/** Milliseconds `run` takes, after a first run that reads the DTO's metadata. */
function elapsed(run: () => unknown): number {
  run();
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe('validQuery', () => {
  it('converts and checks a query, and gives a query string met again the same frozen outcome', () => {
    const url = '/v2/wallets?limit=5&status=idle';
    const first = validQuery(WalletListQueryDto, url, { limit: '5', status: 'idle' });
    expect(first).toBeInstanceOf(WalletListQueryDto);
    expect({ ...first }).toEqual({ limit: 5, status: ['idle'] });
    expect(validQuery(WalletListQueryDto, url, { limit: '5', status: 'idle' })).toEqual(first);
    // Shared by the requests with that query string: nobody can change it for the others.
    expect(() => ((first as { limit?: number }).limit = 6)).toThrow(TypeError);
    expect(() => first.status?.push('failed')).toThrow(TypeError);

    expect({ ...validQuery(WalletListQueryDto, '/v2/wallets', {}) }).toEqual({});
    expect({ ...validQuery(WalletListQueryDto, '/v2/wallets?limit=7', { limit: '7' }) }).toEqual({ limit: 7 });
  });

  it('refuses a bad query string each time it comes, with a new error naming what is wrong', () => {
    const url = '/v2/activity?limit=0';
    const errors = [1, 2].map(() => failure(() => validQuery(ActivityQueryDto, url, { limit: '0' })));
    for (const error of errors) {
      expect(error.code).toBe('validation_error');
      expect(error.message).toBe('limit must be an integer from 1 to 100.');
    }
    expect(errors[0]).not.toBe(errors[1]);

    const unknown = failure(() => validQuery(ActivityQueryDto, '/v2/activity?colour=red', { colour: 'red' }));
    expect(unknown.code).toBe('unknown_parameters');
    expect(unknown.message).toBe('Unknown query parameter: colour.');
  });

  it('keeps outcomes per DTO: the same query string is checked against each DTO on its own', () => {
    const url = '/v2/x?order=asc';
    expect({ ...validQuery(WalletListQueryDto, url, { order: 'asc' }) }).toEqual({ order: 'asc' });
    expect(failure(() => validQuery(ActivityQueryDto, url, { order: 'asc' })).code).toBe('unknown_parameters');
  });

  it('refuses a single-valued parameter given twice, naming it', () => {
    const url = `/v2/wallets/${WALLET_ID}/deposits/lookup?txHash=${TX_HASH}&chain=ethereum&chain=ethereum`;
    expect(refusal(() => validQuery(DepositLookupQueryDto, url, { txHash: TX_HASH, chain: ['ethereum', 'ethereum'] }))).toEqual(
      invalid('chain must be given once.'),
    );
    expect(
      refusal(() => validQuery(ActivityQueryDto, '/v2/activity?type=deposit&type=withdrawal', { type: ['deposit', 'withdrawal'] })),
    ).toEqual(invalid('type must be given once.'));
    expect(refusal(() => validQuery(ActivityQueryDto, '/v2/activity?limit=10&limit=20', { limit: ['10', '20'] }))).toEqual(
      invalid('limit must be given once.'),
    );
  });

  it('takes a repeatable parameter once or several times, as a list', () => {
    const other = REQUEST_ID;
    expect({ ...validQuery(ActivityQueryDto, `/v2/activity?walletId=${WALLET_ID}`, { walletId: WALLET_ID }) }).toEqual({
      walletId: [WALLET_ID],
    });
    const both = validQuery(ActivityQueryDto, `/v2/activity?walletId=${WALLET_ID}&walletId=${other}`, { walletId: [WALLET_ID, other] });
    expect({ ...both }).toEqual({ walletId: [WALLET_ID, other] });
    expect({ ...validQuery(WalletListQueryDto, '/v2/wallets?status=idle&status=failed', { status: ['idle', 'failed'] }) }).toEqual({
      status: ['idle', 'failed'],
    });

    const tooMany = Array.from({ length: 51 }, () => WALLET_ID);
    expect(
      refusal(() => validQuery(ActivityQueryDto, `/v2/activity?${tooMany.map((id) => `walletId=${id}`).join('&')}`, { walletId: tooMany })),
    ).toEqual(invalid('walletId must be a UUID, repeated at most 50 times.'));
    expect(
      refusal(() => validQuery(ActivityQueryDto, `/v2/activity?walletId=${WALLET_ID}&walletId=x`, { walletId: [WALLET_ID, 'x'] })),
    ).toEqual(invalid('walletId must be a UUID, repeated at most 50 times.'));
  });

  it('refuses the NUL character in a parameter', () => {
    expect(refusal(() => validQuery(PageQueryDto, '/v2/api-keys?cursor=a%00b', { cursor: 'a\u0000b' }))).toEqual(
      invalid('cursor must not contain the NUL character.'),
    );
  });
});

describe('validateInput of a body', () => {
  it('reads only the DTO’s own keys: 100,000 unknown keys take well under 100 ms', () => {
    const body = { requestId: REQUEST_ID, ...manyKeys(100_000) };
    expect(elapsed(() => validateInput(CancelWithdrawalDto, body, 'body'))).toBeLessThan(200);
    const read = validateInput(CancelWithdrawalDto, body, 'body');
    expect(read).toBeInstanceOf(CancelWithdrawalDto);
    expect({ ...read }).toEqual({ requestId: REQUEST_ID });
  });

  it('reads only a nested DTO’s own keys, and takes a free-form object as parsed, without copying it', () => {
    const allocate = { requestId: REQUEST_ID, allocations: [{ ...INSTRUCTION, ...manyKeys(100_000) }] };
    expect(elapsed(() => validateInput(AllocateDto, allocate, 'body'))).toBeLessThan(200);
    expect({ ...validateInput(AllocateDto, allocate, 'body').allocations[0] }).toEqual(INSTRUCTION);

    // As many keys as a 64 KiB body holds: each is the DTO's own, looked at once for the NUL character.
    const allocations = { ...STRATEGY.allocations, ...manyKeys(5_000) };
    const wallet = { requestId: REQUEST_ID, strategy: { allocations } };
    expect(elapsed(() => validateInput(CreateWalletDto, wallet, 'body'))).toBeLessThan(50);
    expect(validateInput(CreateWalletDto, wallet, 'body').strategy.allocations).toBe(allocations);
  });

  it.each([
    ['POST /v2/wallets/{id}/withdrawals/{withdrawalId}/cancel', CancelWithdrawalDto],
    ['POST .../payouts/{payoutId}/cancel and /retry', PayoutRequestDto],
  ])('reads null on an optional field as omitted (%s)', (_route, dto) => {
    const read = validateInput(dto, { requestId: null }, 'body');
    expect(Object.keys(read)).toEqual([]);
  });

  it('keeps null where it means something, and refuses it on a required field naming the field', () => {
    // PATCH /v2/wallets/{id}: null clears the label; PATCH /v2/webhooks/{id}: null clears the description.
    expect({ ...validateInput(UpdateWalletDto, { label: null }, 'body') }).toEqual({ label: null });
    expect({ ...validateInput(UpdateWebhookDto, { description: null }, 'body') }).toEqual({ description: null });

    expect(refusal(() => validateInput(CreateWalletDto, { requestId: null, strategy: STRATEGY }, 'body'))).toEqual(
      invalid('requestId must be a UUID.'),
    );
    expect(refusal(() => validateInput(UpdateWalletDto, {}, 'body'))).toEqual(
      invalid('label must be a string of at most 200 characters, or null.'),
    );
    expect(refusal(() => validateInput(UpdateWebhookDto, { url: null }, 'body'))).toEqual(invalid('url must be a string.'));
  });

  it.each([
    ['POST /v2/wallets', CreateWalletDto, { requestId: REQUEST_ID, strategy: STRATEGY, label: 'a\u0000b' }, 'label'],
    ['PATCH /v2/wallets/{id}', UpdateWalletDto, { label: 'a\u0000b' }, 'label'],
    ['POST /v2/api-keys', CreateApiKeyDto, { name: 'a\u0000b', role: 'admin' }, 'name'],
    ['POST /v2/approvals/approvers', CreateApproverDto, { label: 'a\u0000b', publicKey: `02${'ab'.repeat(32)}` }, 'label'],
    [
      'POST /v2/address-book/entries',
      CreateAddressBookEntryDto,
      { address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'ethereum_sepolia', label: 'a\u0000b' },
      'label',
    ],
    ['a nested DTO', AllocateDto, { requestId: REQUEST_ID, allocations: [{ ...INSTRUCTION, from: 'cash\u0000' }] }, 'allocations.0.from'],
    [
      'a free-form object',
      CreateWalletDto,
      { requestId: REQUEST_ID, strategy: { allocations: { usdc: [{ yieldSourceId: 'x\u0000' }] } } },
      'strategy.allocations.usdc.0.yieldSourceId',
    ],
    [
      'a key of a free-form object',
      CreateWalletDto,
      { requestId: REQUEST_ID, strategy: { allocations: { 'us\u0000dc': [] } } },
      'strategy.allocations',
    ],
    ['free JSON', UpdateWebhookDto, { description: { note: ['\u0000'] } }, 'description.note.0'],
  ] as [string, Dto<object>, object, string][])('refuses the NUL character naming the field (%s)', (_where, dto, body, field) => {
    expect(refusal(() => validateInput(dto, body, 'body'))).toEqual(invalid(`${field} must not contain the NUL character.`));
  });

  it('refuses a USD amount past what a bigint column holds, naming the field; precision is left to the service', () => {
    const policy = { withdrawals: 'above_threshold', quorum: 1 };
    expect(refusal(() => validateInput(PutApprovalPolicyDto, { ...policy, thresholdUsd: '9223372036854775807.000000' }, 'body'))).toEqual(
      invalid('thresholdUsd must be a decimal USD amount such as "10.500000", at most 9223372036854.775807.'),
    );
    expect(validateInput(PutApprovalPolicyDto, { ...policy, thresholdUsd: '9223372036854.775807' }, 'body').thresholdUsd).toBe(
      '9223372036854.775807',
    );

    const withdrawal = {
      requestId: REQUEST_ID,
      destinationChain: 'ethereum_sepolia',
      destinationAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    };
    expect(refusal(() => validateInput(CreateWithdrawalDto, { ...withdrawal, amountUsd: 2 ** 63 }, 'body'))).toEqual(
      invalid('amountUsd must be a decimal USD amount such as "10.500000", at most 9223372036854.775807.'),
    );
    expect(validateInput(CreateWithdrawalDto, { ...withdrawal, amountUsd: '1.0000001' }, 'body').amountUsd).toBe('1.0000001');
  });
});

describe('validation messages', () => {
  class Silent {
    @IsString({ message: () => '' })
    name!: string;
  }

  class Outer {
    @ValidateNested()
    @Type(() => Silent)
    inner!: Silent;
  }

  it('name the field by its path when a rule has no text', () => {
    expect(refusal(() => validateInput(Silent, { name: 1 }, 'body'))).toEqual(invalid('name is invalid.'));
    expect(refusal(() => validateInput(Outer, { inner: { name: 1 } }, 'body'))).toEqual(invalid('inner.name is invalid.'));
  });

  it('keep the text of a nested DTO’s rule', () => {
    expect(
      refusal(() => validateInput(AllocateDto, { requestId: REQUEST_ID, allocations: [{ ...INSTRUCTION, amountUsd: 'ten' }] }, 'body')),
    ).toEqual(invalid('amountUsd must be a decimal USD amount such as "10.500000", at most 9223372036854.775807.'));
  });
});

describe("class-transformer's metadata storage (internals, pinned at 0.5.1)", () => {
  it('still answers the @Type and @Transform look-ups validateInput plans with', async () => {
    const { defaultMetadataStorage } = await import('class-transformer/cjs/storage.js');
    class Inner {
      @IsString() name!: string;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    expect(defaultMetadataStorage.findTypeMetadata(Outer, 'inner')?.typeFunction()).toBe(Inner);
    expect(defaultMetadataStorage.findTypeMetadata(Outer, 'missing')).toBeUndefined();
    expect(defaultMetadataStorage.findTransformMetadatas(Outer, 'inner', 1)).toEqual([]);
  });
});
