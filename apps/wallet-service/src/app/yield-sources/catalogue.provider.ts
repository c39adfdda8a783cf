import type { Provider } from '@nestjs/common';
import { Catalogue } from '../domain/catalogue/catalogue.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';

export const catalogueProvider: Provider = {
  provide: Catalogue,
  inject: [WalletEnvironment],
  useFactory: (env: WalletEnvironment) => env.catalogue,
};
