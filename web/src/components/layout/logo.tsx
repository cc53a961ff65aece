import { Link } from 'react-router';

export function Logo() {
  return (
    <Link to="/" className="inline-flex min-h-11 items-center gap-2 rounded-md font-semibold text-stone-900" aria-label="RoomStager home">
      <svg aria-hidden viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="7" fill="#0f766e" />
        <path d="M7 16.5 16 9l9 7.5V25a1 1 0 0 1-1 1h-5v-6h-6v6H8a1 1 0 0 1-1-1z" fill="#fff" />
      </svg>
      <span className="text-lg tracking-tight">RoomStager</span>
    </Link>
  );
}
