import { useState } from 'react';
import { Check, Copy, KeyRound } from 'lucide-react';
import { toast } from '../lib/toast.ts';
import { Button } from './button.tsx';

/** A password the server generated and shows this once, with a copy button (a student's reset, a new administrator). */
export function OneTimePassword({ password, label, testId }: { password: string; label: string; testId: string }) {
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setCopied(true);
      toast.success('Senha copiada');
    } catch {
      toast.error('Erro ao copiar para área de transferência');
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 rounded-2xl bg-indigo-50 p-4 ring-1 ring-indigo-200">
      <KeyRound aria-hidden="true" className="size-5 shrink-0 text-indigo-700" />
      <output
        aria-label={label}
        className="min-w-0 flex-1 font-mono text-xl font-bold tracking-wide break-all text-slate-900 select-all"
        data-testid={testId}
      >
        {password}
      </output>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => void copy()}
        icon={copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
      >
        {copied ? 'Copiada' : 'Copiar'}
      </Button>
    </div>
  );
}
