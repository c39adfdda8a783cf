import type { CreatedWebhookRegistrationDto, WebhookRegistrationDto } from '@service/contracts';

export interface RegistrationRow {
  id: string;
  url: string;
  events: string[];
  description: unknown;
  createdAt: Date;
}

/** The registration as every read returns it: no secret, `description` only when stored. */
export function toRegistrationView(row: RegistrationRow): WebhookRegistrationDto {
  const view: WebhookRegistrationDto = { id: row.id, url: row.url, events: row.events, createdAt: row.createdAt.toISOString() };
  if (row.description !== null && row.description !== undefined) view.description = row.description;
  return view;
}

export function toCreatedView(row: RegistrationRow, secret: string): CreatedWebhookRegistrationDto {
  return { ...toRegistrationView(row), secret };
}

/** The interface stores a description only when it is a truthy JSON value. */
export function storedDescription(value: unknown): unknown {
  return value ? value : null;
}
