'use strict';
// autocannon's `setupRequest` for the wallet suite's write load (see `writeLoad` in wallets.ts).
// autocannon runs the load on a worker thread and requires this module there, since functions do
// not cross to it; the request object carries the plain data (`kind`, `wallets`). Each request
// goes to a wallet picked at random, as TPC-B picks its branches, with a new requestId.
const { randomUUID } = require('node:crypto');

const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

module.exports = function setupRequest(request) {
  const wallet = request.wallets[Math.floor(Math.random() * request.wallets.length)];
  if (request.kind === 'allocate') {
    return {
      ...request,
      path: `/v2/wallets/${wallet}/allocate`,
      body: JSON.stringify({ requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd: '0.000001' }] }),
    };
  }
  return {
    ...request,
    path: `/v2/wallets/${wallet}/withdrawals`,
    body: JSON.stringify({ requestId: randomUUID(), destinationChain: 'solana_devnet', destinationAddress: SOLANA, amountUsd: '1' }),
  };
};
