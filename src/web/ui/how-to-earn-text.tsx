import type { TextBlock } from '../../shared/how-to-earn.ts';

/** The school's 'Como ganhar' text as paragraphs and lists of text nodes: whatever it holds, no markup is ever rendered. */
export function HowToEarnText({ blocks }: { blocks: TextBlock[] }) {
  return (
    <div className="flex flex-col gap-4 text-base leading-relaxed text-slate-800" data-testid="how-to-earn-text">
      {blocks.map((block, index) =>
        block.kind === 'list' ? (
          <ul key={index} className="flex list-disc flex-col gap-2 pl-5 marker:text-indigo-500">
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex} className="wrap-anywhere">
                {item}
              </li>
            ))}
          </ul>
        ) : (
          <p key={index} className="wrap-anywhere">
            {block.lines.map((line, lineIndex) => (
              <span key={lineIndex}>
                {lineIndex > 0 && <br />}
                {line}
              </span>
            ))}
          </p>
        ),
      )}
    </div>
  );
}
