export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Who is asking, passed by the gateway with every request. */
export interface RequestContext {
  readonly orgId: string;
  readonly principalId: string;
  readonly role: Role;
  readonly requestId: string;
}

/** What travels over NATS: the caller's context beside the validated input. */
export type RpcRequest<Input extends object = Record<string, never>> = { readonly ctx: RequestContext } & Input;

export interface HealthReply {
  readonly service: string;
  readonly status: 'ok';
}
