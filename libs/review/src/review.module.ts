import { Module } from '@nestjs/common';
import { ReviewItemsService } from './review-items.service.js';

@Module({ providers: [ReviewItemsService], exports: [ReviewItemsService] })
export class ReviewModule {}
