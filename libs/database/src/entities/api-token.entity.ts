import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, type Relation } from 'typeorm';
import { MerchantEntity } from './merchant.entity.js';

export type ApiRole = 'merchant' | 'reviewer' | 'admin';
/** `env`: from API_TOKENS, stops working once it leaves the setting; `cli`: from token:create, lives until revoked. */
export type ApiTokenSource = 'env' | 'cli';

/**
 * A bearer token, stored only as its SHA-256. A merchant token belongs to one merchant (its tenant); a reviewer or
 * admin token names its person, who is the actor in audit trails and four-eyes (two tokens, one person).
 */
@Entity('api_tokens')
@Unique('UQ_api_tokens_name', ['name'])
@Unique('UQ_api_tokens_token_hash', ['tokenHash'])
@Check('api_tokens_role_check', `role IN ('merchant','reviewer','admin')`)
@Check('api_tokens_holder_check', `(role = 'merchant' AND merchant_id IS NOT NULL AND person IS NULL) OR (role <> 'merchant' AND merchant_id IS NULL AND person IS NOT NULL)`)
@Check('api_tokens_source_check', `source IN ('env','cli')`)
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') role: ApiRole;
  @Column('char', { name: 'token_hash', length: 64 }) tokenHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('uuid', { name: 'merchant_id', nullable: true }) merchantId: string | null;
  @ManyToOne(() => MerchantEntity, { nullable: true })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'api_tokens_merchant_id_fkey' })
  merchant?: Relation<MerchantEntity>;
  @Column('text', { nullable: true }) person: string | null;
  @Column('text', { default: 'cli' }) source: ApiTokenSource;
}
