/**
 * Answers remembered per JS realm, up to a bound: for work a render repeats
 * with the same input (a language's strings, content that stays from render
 * to render), where the input can also be a visitor's and so unbounded. Past
 * the bound it forgets everything and starts again.
 */
export class Kept<V> {
  readonly #answers = new Map<string, V>();

  constructor(readonly bound = 2000) {}

  get(key: string): V | undefined {
    return this.#answers.get(key);
  }

  /** Keeps `answer` under `key` and gives it back. */
  keep(key: string, answer: V): V {
    if (this.#answers.size >= this.bound) this.#answers.clear();
    this.#answers.set(key, answer);
    return answer;
  }
}
