import { TextField, type TextFieldProps } from '../../ui/text-field.tsx';

/** The code printed on the 'Carta para responsáveis', as the sign-up and the family area ask for it. */
export function LetterCodeField(props: Omit<TextFieldProps, 'label' | 'name' | 'autoComplete' | 'autoCapitalize' | 'placeholder'>) {
  return (
    <TextField label="Código da carta" name="code" autoComplete="off" autoCapitalize="characters" placeholder="XXXX-XXXX-XXXX" {...props} />
  );
}
