import { Module } from '@nestjs/common';
import { QuotingModule } from '@svc/quoting';

/** The quoting app: serves `quoting.quote` (intent sessions) from the providers' quotes. */
@Module({ imports: [QuotingModule] })
export class AppModule {}
