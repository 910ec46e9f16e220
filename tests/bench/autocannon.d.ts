/**
 * autocannon 8 ships no types, and @types/autocannon describes version 7 (a promise without
 * `on`, other request hooks): the part tests/bench/load.ts uses, with the journey's context and
 * the events' arguments left loose.
 */
declare module "autocannon" {
  type Loose = any;
  function autocannon(options: autocannon.Options): autocannon.Instance;
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, Loose>;
      body?: string | Buffer;
      setupRequest?: (request: Request, context: Loose) => Request;
      onResponse?: (status: number, body: string, context: Loose, headers?: Record<string, Loose>) => void;
    }
    interface Options extends Request {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      requests?: Request[];
    }
    interface Instance extends PromiseLike<Loose> {
      on(event: string, listener: (...args: Loose[]) => void): Instance;
      stop(): void;
    }
    function track(instance: Instance, options?: Loose): void;
  }
  export = autocannon;
}
