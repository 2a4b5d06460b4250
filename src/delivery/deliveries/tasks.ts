// The durable job that sends one delivery.
export const DELIVER = 'deliver';

export interface DeliverPayload {
  deliveryId: string;
  /** 1 for the first attempt of a round; a manual retry starts a new round. */
  attempt?: number;
}
