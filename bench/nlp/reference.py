# The reference the understanding benchmark sets the product beside, OUTSIDE the product and out of
# `npm test`: plain TF-IDF (word 1-2-grams + character 2-5-grams) with scikit-learn's logistic
# regression, on the same splits (twenty intents held out as out of scope) as bench/nlp-understanding.ts.
# Prints top-1 and the share of in-scope queries routed right at the threshold that turns away
# 60 % of out-of-scope queries. Set it up once:
#   python3 -m venv .cache/nlp-reference && .cache/nlp-reference/bin/pip install scikit-learn==1.5.2
# then: .cache/nlp-reference/bin/python bench/nlp/reference.py [banking77] [hwu64]
import csv, os, sys, numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from scipy.sparse import hstack, csr_matrix
def data_dir(name):
    if os.environ.get('NLP_DATA_DIR'): return os.path.join(os.environ['NLP_DATA_DIR'], name)
    d = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    while True:
        c = os.path.join(d, 'shared', 'data', name)
        if os.path.exists(os.path.join(c, 'train.csv')): return c
        if os.path.dirname(d) == d: return None
        d = os.path.dirname(d)
def read(s, split):
    with open(os.path.join(data_dir(s), f'{split}.csv')) as f:
        r = list(csv.reader(f))[1:]
    return [(t.strip(), c.strip()) for t, c in r if t.strip()]
def held_out(intents):
    return set(i for k, i in enumerate(intents) if (k*20) % len(intents) < 20)
def first(ex, n):
    seen = {}; out = []
    for i, (t, c) in enumerate(ex):
        seen[c] = seen.get(c, 0) + 1
        if n is None or seen[c] <= n: out.append(i)
    return out
model = None  # embeddings were compared outside the product while choosing the encoder
for s in [a for a in sys.argv[1:] if a in ('banking77', 'hwu64')] or ['banking77', 'hwu64']:
    if not data_dir(s): print(f'{s}: no data, skipped'); continue
    tr, te = read(s, 'train'), read(s, 'test')
    intents = sorted(set(c for _, c in tr)); held = held_out(intents)
    if model:
        Etr = np.fromfile(f'/tmp/nlp2/emb/{s}-{model}-train.f32', dtype=np.float32).reshape(-1, 384)
        Ete = np.fromfile(f'/tmp/nlp2/emb/{s}-{model}-test.f32', dtype=np.float32).reshape(-1, 384)
        assert len(Etr) == len(tr), (len(Etr), len(tr))
    for n in [10, None]:
        idx = [i for i in first(tr, n) if tr[i][1] not in held]
        X = [tr[i][0] for i in idx]; y = [tr[i][1] for i in idx]
        w = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True); c = TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5), sublinear_tf=True)
        Xtr = hstack([w.fit_transform(X), c.fit_transform(X)])
        Xte = hstack([w.transform([t for t, _ in te]), c.transform([t for t, _ in te])])
        if model:
            Xtr = hstack([Xtr, csr_matrix(Etr[idx] * 2)]); Xte = hstack([Xte, csr_matrix(Ete * 2)])
        clf = LogisticRegression(C=10, max_iter=2000).fit(Xtr, y)
        P = clf.predict_proba(Xte); best = P.max(1); lab = clf.classes_[P.argmax(1)]
        ins = np.array([c not in held for _, c in te]); truth = np.array([c for _, c in te])
        top1 = (lab[ins] == truth[ins]).mean()
        thr = np.quantile(best[~ins], 0.6)  # 60 % of out-of-scope below it
        inscope = ((lab == truth) & (best >= thr))[ins].mean()
        print(f'reference {s} {"10-shot" if n else "full"} scikit-learn TF-IDF + logistic regression: top-1 {100*top1:.1f} %, in scope at 60 % OOS recall {100*inscope:.1f} %')
