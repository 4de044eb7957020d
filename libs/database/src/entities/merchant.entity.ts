import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A tenant: its charges, refunds and accounts are its own, and every merchant route says so in its SQL. */
@Entity('merchants')
@Unique('UQ_merchants_name', ['name'])
export class MerchantEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
