/**
 * The AI assistants a visit can come from, keyed by the referrer's host without `www.`. Names are
 * the live product names (the ones its crawler catalogue gives the operators' products), so a
 * product's referrals and its crawler requests meet on one name.
 */
const AI_REFERRER_PRODUCTS: ReadonlyMap<string, string> = new Map([
  ['chatgpt.com', 'ChatGPT'],
  ['chat.openai.com', 'ChatGPT'],
  ['chat.com', 'ChatGPT'],
  ['openai.com', 'ChatGPT'],
  ['claude.ai', 'Claude'],
  ['perplexity.ai', 'Perplexity'],
  ['gemini.google.com', 'Google Gemini'],
  ['bard.google.com', 'Google Gemini'],
  ['copilot.microsoft.com', 'Microsoft Copilot'],
  ['copilot.cloud.microsoft', 'Microsoft Copilot'],
  ['meta.ai', 'Meta AI'],
  ['kimi.moonshot.cn', 'Kimi'],
  ['kimi.com', 'Kimi'],
  ['chat.deepseek.com', 'DeepSeek'],
  ['grok.com', 'Grok'],
  ['chat.mistral.ai', 'Mistral'],
  ['you.com', 'You.com'],
  ['phind.com', 'Phind'],
  ['poe.com', 'Poe'],
]);

const PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The host of a referrer (URL or bare host), lower-cased, without `www.`, port or path. */
function hostOf(referrer: string): string {
  const rest = referrer.trim().toLowerCase().replace(PROTOCOL, '');
  const end = rest.search(/[/?#:]/);
  const host = end < 0 ? rest : rest.slice(0, end);
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * The AI product a referrer belongs to ('ChatGPT', 'Claude', 'Perplexity', 'Google Gemini',
 * 'Microsoft Copilot', …), or null when it is not an AI assistant. Accepts a URL
 * (`https://chatgpt.com/`) or a bare host (`www.perplexity.ai`); the host must match exactly
 * (after dropping `www.`), as the live domain lookup does.
 */
export function aiProductOfReferrer(referrer: string): string | null {
  if (referrer === '') return null;
  return AI_REFERRER_PRODUCTS.get(hostOf(referrer)) ?? null;
}

/** Every product {@link aiProductOfReferrer} can answer, sorted by name. */
export const AI_REFERRAL_PRODUCTS: readonly string[] = [...new Set(AI_REFERRER_PRODUCTS.values())].sort();
