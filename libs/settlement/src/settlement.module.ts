import { Module } from '@nestjs/common';
import { SubmitEvidenceHandler } from './submit-evidence/submit-evidence.handler';

@Module({ controllers: [SubmitEvidenceHandler] })
export class SettlementModule {}
