import type { Style } from '@roomstager/contracts';

/** Each style's name and one line on what it looks like, as the style picker and the gallery show them. */
export const STYLE_INFO: Record<Style, { name: string; description: string }> = {
  modern: { name: 'Modern', description: 'Clean lines, greys, black metal and walnut' },
  traditional: { name: 'Traditional', description: 'Rolled arms, warm woods, patterned rug, brass' },
  minimalist: { name: 'Minimalist', description: 'Few pieces, light oak, white and beige' },
  luxury: { name: 'Luxury', description: 'Velvet, marble and gold accents' },
};
