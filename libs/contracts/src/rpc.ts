export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Who is asking, passed by the gateway with every request. */
export interface RequestContext {
  readonly orgId: string;
  readonly principalId: string;
  readonly role: Role;
  readonly requestId: string;
  /**
   * W3C traceparent of the gateway's HTTP span, only when the gateway traces: the NATS request
   * span is its child. The service continues the trace from the `traceparent` NATS header.
   */
  readonly traceparent?: string;
}

/** What travels over NATS: the caller's context beside the validated input. */
export type RpcRequest<Input extends object = Record<string, never>> = { readonly ctx: RequestContext } & Input;

export interface HealthReply {
  readonly service: string;
  readonly status: 'ok';
}
