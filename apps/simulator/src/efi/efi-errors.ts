/** Efí's proprietary error shape `{nome, mensagem}` (provider-contracts.md §4b). */
export const efiError = (nome: string, mensagem: string) => ({ nome, mensagem });

export const efiErrors = {
  unauthorized: () => efiError('nao_autorizado', 'Token de acesso ausente, inválido ou expirado'),
  invalidClient: () => ({ error: 'invalid_client', error_description: 'Invalid or inactive credentials' }),
  notFound: () => efiError('pix_nao_encontrado', 'Pix não encontrado para o identificador informado'),
  /** Efí's documented answer to a used idEnvio (PUT /v2/gn/pix/:idEnvio, 409). */
  duplicate: () => efiError('id_envio_duplicado', 'O id de envio informado já foi utilizado em outro pagamento'),
  /** Efí's documented 422 of the same route. */
  paymentDenied: () => efiError('pagamento_negado', 'Pagamento negado por análises'),
  inProgress: () => efiError('requisicao_em_andamento', 'Já existe uma requisição em processamento com este idEnvio'),
  rateLimited: () => efiError('limite_de_requisicoes', 'Limite de requisições atingido; tente novamente mais tarde'),
  internal: () => efiError('erro_interno_servidor', 'Erro interno do servidor'),
  invalid: (mensagem: string) => efiError('valor_invalido', mensagem),
  unknownRoute: (method: string, path: string) => efiError('rota_nao_encontrada', `${method} ${path} não existe`),
};
