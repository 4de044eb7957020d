export { ReviewModule } from './review.module.js';
export { ReviewItemsService } from './review-items.service.js';
