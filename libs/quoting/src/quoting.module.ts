import { Module } from '@nestjs/common';
import { QuoteHandler } from './quote/quote.handler';
import { QuoteIntentService } from './quote/quote-intent.service';

/** Needs EVENT_STORE, PROVIDER_ADAPTERS, PARTNER_DIRECTORY and QUOTING_OPTIONS from the composition root. */
@Module({ controllers: [QuoteHandler], providers: [QuoteIntentService] })
export class QuotingModule {}
