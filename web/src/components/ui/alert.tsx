import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  default: 'border-stone-200 bg-white text-stone-900',
  destructive: 'border-red-300 bg-red-50 text-red-800',
  success: 'border-green-300 bg-green-50 text-green-900',
} as const;

interface AlertProps extends HTMLAttributes<HTMLDivElement> {
  variant?: keyof typeof variants;
}

export function Alert({ variant = 'default', className, ...props }: AlertProps) {
  return <div role="alert" className={cn('rounded-lg border p-4 text-sm', variants[variant], className)} {...props} />;
}
