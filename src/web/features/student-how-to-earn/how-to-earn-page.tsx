import { Lightbulb } from 'lucide-react';
import { defaultHowToEarn, HOW_TO_EARN_TITLE, textBlocks } from '../../../shared/how-to-earn.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { HowToEarnText } from '../../ui/how-to-earn-text.tsx';

/** /student/como-ganhar: the school's rules as it writes them in Configurações, or the default written from its settings. */
export default function HowToEarnPage() {
  const rules = useSchoolSettings().data?.rules;
  return (
    <div>
      <PageHeader title={HOW_TO_EARN_TITLE} description="As regras da sua escola" icon={Lightbulb} />
      <Card className="max-w-3xl">
        {rules ? (
          <HowToEarnText blocks={textBlocks(rules.howToEarnText || defaultHowToEarn(rules))} />
        ) : (
          <Skeleton className="h-48 w-full" />
        )}
      </Card>
    </div>
  );
}
