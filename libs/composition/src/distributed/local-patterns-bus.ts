import { type INestApplication } from '@nestjs/common';
import {
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  type MessageBus,
  type MessagePatternName,
  NestMessageBus,
} from '@svc/messaging';

/**
 * The bus of an app that serves some request patterns itself: a request of one of `patterns` goes through an
 * in-process broker to the handlers registered in the app's own Nest app (as in the one-process service), every
 * other request and every event to `remote` (Kafka). The caller cannot tell where a pattern is served: the replies,
 * timeouts (BusTimeoutError) and errors are the same, and the handlers run under the same BusHandlerInterceptor.
 */
export class LocalPatternsBus {
  readonly bus: MessageBus;
  private readonly broker = new InProcessBroker();
  private readonly patterns: ReadonlySet<string>;
  private server: InProcessServer | undefined;

  constructor(
    patterns: readonly MessagePatternName[],
    private readonly remote: MessageBus,
  ) {
    this.patterns = new Set(patterns);
    const local: MessageBus = new NestMessageBus(new InProcessClient(this.broker));
    this.bus = {
      request: (pattern, payload, options) =>
        this.patterns.has(pattern)
          ? local.request(pattern, payload, options)
          : this.remote.request(pattern, payload, options),
      emit: (topic, key, payload) => this.remote.emit(topic, key, payload),
    };
  }

  /**
   * Serves the local patterns with `app`'s handlers: call before `app.startAllMicroservices()`, then `assertServed()`.
   */
  serveWith(app: INestApplication): void {
    this.server = new InProcessServer(this.broker);
    app.connectMicroservice({ strategy: this.server }, { inheritAppConfig: true });
  }

  /**
   * After `app.startAllMicroservices()`: refuses an app that lacks a handler of a local pattern (its module does not
   * compose the feature module that serves it) or has handlers of patterns not declared local (never reached).
   */
  assertServed(): void {
    const served = [...(this.server?.getHandlers().keys() ?? [])];
    const missing = [...this.patterns].filter((p) => !served.includes(p));
    const undeclared = served.filter((p) => !this.patterns.has(p));
    if (missing.length > 0 || undeclared.length > 0) {
      throw new Error(
        `the local bus patterns do not match the app's handlers: ` +
          `not served ${JSON.stringify(missing)}, not declared ${JSON.stringify(undeclared)}`,
      );
    }
  }
}
