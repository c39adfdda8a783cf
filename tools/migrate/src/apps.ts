import path from 'node:path';

/** Every service that owns a Prisma schema, with the PostgreSQL schema its tables live in. */
export const SERVICE_SCHEMAS = {
  'wallet-service': 'wallet',
  'gvault-service': 'gvault',
  'microvault-service': 'microvault',
  'webhook-service': 'webhook',
  'activity-service': 'activity',
  'identity-service': 'identity',
  'risk-service': 'risk',
} as const;

export type ServiceApp = keyof typeof SERVICE_SCHEMAS;

export const SERVICE_APPS = Object.keys(SERVICE_SCHEMAS) as ServiceApp[];

export function isServiceApp(name: string): name is ServiceApp {
  return Object.hasOwn(SERVICE_SCHEMAS, name);
}

export function prismaDir(root: string, app: ServiceApp): string {
  return path.join(root, 'apps', app, 'prisma');
}

export function migrationsDir(root: string, app: ServiceApp): string {
  return path.join(prismaDir(root, app), 'migrations');
}
