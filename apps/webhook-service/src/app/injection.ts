/** Injection symbols of webhook-service; the providers behind them are in `webhook.providers.ts`. */
export const SECRET_BOX = Symbol('SECRET_BOX');
export const URL_POLICY = Symbol('URL_POLICY');
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');
/** A {@link DeliveryWake}: how the API asks the dispatcher to look for due deliveries now. */
export const DELIVERY_WAKE = Symbol('DELIVERY_WAKE');

/** Implemented by the dispatcher (a background worker), so the API need not import it. */
export interface DeliveryWake {
  wake(): void;
}
