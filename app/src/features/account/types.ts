/**
 * Self-service shapes the server sends (subscriber, notices, bundles,
 * permissions). The page data names them; they are written by hand until
 * the account backend types them in the Rust contract too.
 */
/** A bundle the subscriber holds (spec §3: balance.bundle). */
export interface BundleBalance {
  name: string;
  remaining: number;
  unit: "MB" | "MIN" | "SMS" | string;
  expiresAt?: string | null;
}

/**
 * The authentication user of spec §3, as the server builds it. The number
 * and names come from the session; the customer details are absent, and
 * the balance null, while the operator has not given them (on pages that
 * show no balances it is not asked at all).
 */
export interface Subscriber {
  msisdn: string | null;
  /** First and family name joined. */
  names: string;
  /** From the operator's paymentMethod: PREPAID or POSTPAID. */
  paymentType?: string;
  minor?: boolean;
  registrationStatus?: string;
  scopes?: string[];
  /**
   * Null when the balances could not be read, or not within the server's
   * budget (spec §8: "Sorry an Error occured"): the account page asks again.
   */
  balance: { mainBalance: number; bundle: BundleBalance[] } | null;
}

/** A toast from the server (spec §8): a key under `notify.` or the operator's own text. */
export interface Notice {
  type: "info" | "warning" | "error";
  key?: string;
  text?: string;
  /** Milliseconds; the toast default otherwise. */
  duration?: number;
}

/** A bundle that can be bought, in the page's language. */
export interface Bundle {
  id: string;
  name: string;
  /** TZS. */
  price: number;
  validity: string;
  type: string;
}

export interface Permission {
  id: string;
  name: string;
  description: string;
  granted: boolean;
}
