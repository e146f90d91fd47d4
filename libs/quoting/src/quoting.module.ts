import { Module } from '@nestjs/common';
import { QuoteHandler } from './quote/quote.handler';

@Module({ controllers: [QuoteHandler] })
export class QuotingModule {}
