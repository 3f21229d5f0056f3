import { Card, Cards } from '@/components/mdx/cards';

/** A card that links to a page; `notBuilt` marks what is documented but not built yet. */
export interface LinkCard {
  title: string;
  href: string;
  text: string;
  /** Set for what is documented but not built yet: the card says so. */
  notBuilt?: boolean;
}

export function NotBuiltBadge() {
  return <span className="badge badge-not-built">Not built yet</span>;
}

/** For a way to get Tributary that does not exist yet (no package, no image). */
export function PlannedBadge() {
  return <span className="badge badge-not-built">Planned</span>;
}

/** A grid of link cards from data (home platforms, downloads senders and receivers). */
export function LinkCards({ cards, columns }: { cards: readonly LinkCard[]; columns?: 2 | 3 }) {
  return (
    <Cards columns={columns}>
      {cards.map((card) => (
        <Card key={card.href} title={card.title} href={card.href}>
          {card.notBuilt ? <NotBuiltBadge /> : null} {card.text}
        </Card>
      ))}
    </Cards>
  );
}
