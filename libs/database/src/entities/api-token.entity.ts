import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type ApiRole = 'merchant' | 'reviewer' | 'admin';

/** A bearer token, stored only as its SHA-256; its name is the actor in audit trails. */
@Entity('api_tokens')
@Unique('UQ_api_tokens_name', ['name'])
@Unique('UQ_api_tokens_token_hash', ['tokenHash'])
@Check('api_tokens_role_check', `role IN ('merchant','reviewer','admin')`)
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') role: ApiRole;
  @Column('char', { name: 'token_hash', length: 64 }) tokenHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
}
