import { useEffect, useRef, type RefObject } from 'react';

/**
 * Once `state` has changed, focuses `target` if focus was lost: the control the person used went
 * away with the change (the browser then puts focus on <body>, back at the top of the page).
 * Focus that is elsewhere, or a first render, is left alone.
 */
export function useFocusWhenLost(state: unknown, target: RefObject<HTMLElement | null>): void {
  const previous = useRef(state);
  useEffect(() => {
    if (Object.is(previous.current, state)) return;
    previous.current = state;
    if (document.activeElement === null || document.activeElement === document.body) target.current?.focus();
  }, [state, target]);
}
