/**
 * Self-service shapes the server sends (subscriber, notices, bundles,
 * permissions). The page data names them; they are written by hand until
 * the account backend types them in the Rust contract too.
 */
/** A bundle the subscriber holds (the operator's `balance.bundle`): one allowance of it. */
export interface BundleBalance {
  /** The catalogue's bundle, whose name (in the page's language) `name` is. */
  bundleId?: string | null;
  name: string;
  remaining: number;
  unit: "MB" | "MIN" | "SMS" | string;
  expiresAt?: string | null;
}

/**
 * The authentication user, as the server builds it. The number
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
   * budget (the page says "Sorry an Error occured"): the account page asks again.
   */
  balance: {
    mainBalance: number;
    /** The M-Pesa wallet; null when the number has none (or it could not be read). */
    mpesaBalance?: number | null;
    bundle: BundleBalance[];
  } | null;
  /** What the subscriber can pay with: `AIRTIME`, and `MPESA` unless the number has no M-Pesa account. */
  paymentMethods?: string[];
}

export interface Permission {
  id: string;
  name: string;
  description: string;
  granted: boolean;
}
