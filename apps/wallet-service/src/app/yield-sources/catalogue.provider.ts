import type { Provider } from '@nestjs/common';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { Catalogue } from './catalogue.js';

export const catalogueProvider: Provider = {
  provide: Catalogue,
  inject: [WalletEnvironment],
  useFactory: (env: WalletEnvironment) => env.catalogue,
};
