/** Who holds a shard's lease and until when (epoch ms); `owner: null` when nobody does. */
export interface LeaseState {
  owner: string | null;
  until: number;
}

export const initialLeaseState: LeaseState = { owner: null, until: 0 };
