/** Keys come only from the environment; an error names the variable, never a value. */
import { UsageError } from '../../../core/errors.js';

export class MissingKeyError extends UsageError {
  constructor(variable: string, provider: string) {
    super(`the ${provider} provider needs an API key in $${variable}, which is not set`, { fix: `export ${variable}=... (or set model.api_key_env to the variable that holds it; never the key itself)` });
  }
}
