import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  default: 'bg-accent-700 text-white',
  secondary: 'bg-stone-100 text-stone-800',
  destructive: 'bg-red-700 text-white',
  success: 'bg-green-700 text-white',
} as const;

interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: keyof typeof variants;
}

export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', variants[variant], className)}
      {...props}
    />
  );
}
