import { IncompleteJsonError, InvalidJsonError } from './partial-json-errors';
import { createPartialJsonParser } from './partial-json-parser';

/**
 * Whether text that is not a JSON document is the beginning of one: nothing in it is wrong, the
 * document just stops (a stream or a response that hit the token limit), as opposed to malformed
 * JSON.
 */
export function isCutJson(text: string): boolean {
  const parser = createPartialJsonParser();
  try {
    parser.push(text);
    parser.end();
    return false;
  } catch (error) {
    if (error instanceof IncompleteJsonError) return true;
    if (error instanceof InvalidJsonError) return false;
    throw error;
  }
}
